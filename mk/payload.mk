# payload.mk - build/gen/payload.c: the files the product binary carries
# (common/util/payload.h): the canned-script tree, the Python and Perl library
# modules those scripts and perf's own import, the Python importer.
# Included by the Makefile; every build of the full sources links it.

PAYLOAD_PY := /usr/bin/python3.11
PAYLOAD_IN := $(shell find scripts/python scripts/perl -type f -not -path '*/__pycache__/*') \
	engines/python/python_payload.py scripts/tools/gen-payload.py

$(BUILD)/gen/payload.c: $(PAYLOAD_IN)
	@mkdir -p $(dir $@)
	@$(PAYLOAD_PY) scripts/tools/gen-payload.py $(BUILD)/gen/payload.bin $@ \
		scripts=scripts python=scripts/python perl=scripts/perl \
		file=engines/python/python_payload.py:lib/tracebox/python_payload.py
