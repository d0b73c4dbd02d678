// cxx.cc - the test program's C++ part: a namespace, a class and a template, called from C.
namespace shapes {
template <typename T> struct Spinner {
	T state;
	__attribute__((noinline)) T spin(unsigned long n)
	{
		for (unsigned long i = 0; i < n; i++)
			state = state * 6364136223846793005UL + i;
		return state;
	}
};
}

extern "C" unsigned long cxx_work(unsigned long n)
{
	shapes::Spinner<unsigned long> s = { 3 };
	return s.spin(n);
}
