# install.mk - make install / make uninstall, as a Unix tool installs:
#   PREFIX (default /usr/local) and DESTDIR (a staging root, default none)
#   PREFIX/bin/tracebox and a link to it for every applet,
#   PREFIX/share/tracebox/scripts/ the canned scripts (found by the binary
#   as ../share/tracebox/scripts: they win over the copies it carries, so
#   they can be edited), PREFIX/share/doc/tracebox/ the documentation.
# Included by the Makefile. uninstall removes exactly these, then the
# folders of ours that are left empty.

PREFIX  ?= /usr/local
DESTDIR ?=
INSTALL ?= install
BINDIR  := $(DESTDIR)$(PREFIX)/bin
DATADIR := $(DESTDIR)$(PREFIX)/share/tracebox
DOCDIR  := $(DESTDIR)$(PREFIX)/share/doc/tracebox
INSTALL_SCRIPTS := $(shell find scripts/python scripts/perl -type f -not -path '*/__pycache__/*' \
	-not -name '*.pyc' | LC_ALL=C sort)
INSTALL_DOCS := README.md engines/README.md

.PHONY: install uninstall
install: $(BUILD)/tracebox
	$(INSTALL) -d $(BINDIR)
	$(INSTALL) -m 0755 $(BUILD)/tracebox $(BINDIR)/tracebox
	for a in $(APPLETS); do ln -sfn tracebox $(BINDIR)/$$a; done
	@echo "$(INSTALL) the canned scripts into $(DATADIR)/scripts"
	@for f in $(INSTALL_SCRIPTS); do \
		case $$f in */bin/*) m=0755 ;; *) m=0644 ;; esac; \
		$(INSTALL) -D -m $$m $$f $(DATADIR)/$$f || exit 1; \
	done
	$(INSTALL) -d $(DOCDIR)
	$(INSTALL) -m 0644 README.md $(DOCDIR)/README.md
	$(INSTALL) -m 0644 engines/README.md $(DOCDIR)/engines.md

uninstall:
	rm -f $(BINDIR)/tracebox $(addprefix $(BINDIR)/,$(APPLETS))
	rm -f $(addprefix $(DATADIR)/,$(INSTALL_SCRIPTS)) $(DOCDIR)/README.md $(DOCDIR)/engines.md
	for d in $(DATADIR) $(DOCDIR); do \
		[ ! -d $$d ] || find $$d -depth -type d -empty -delete; \
	done
