# The two commands a new user needs; see README.md.
.PHONY: run test setup

# Install what is missing, build, and run Tally on its defaults.
run:
	scripts/run.sh

# Run the whole test suite (what CI runs).
test:
	scripts/test.sh

setup:
	scripts/setup.sh
