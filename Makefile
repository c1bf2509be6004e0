# OpenBench's convention: `make EXE=path` builds the release engine to that path.
EXE ?= cb2026
CARGO ?= cargo

.PHONY: all test clean

all:
	$(CARGO) build --release -p uci --bin cb2026
	cp target/release/cb2026 $(EXE)

test:
	$(CARGO) test --release

clean:
	$(CARGO) clean
