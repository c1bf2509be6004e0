# OpenBench's convention: `make EXE=path` builds the release engine to that path.
# `make EXE=path FEATURES=tune` builds it with the search parameters listed as UCI options, which
# an SPSA tuning run needs (fastchess sets only the options an engine lists).
EXE ?= cb2026
CARGO ?= cargo
FEATURES ?=
TARGET_DIR ?= $(or $(CARGO_TARGET_DIR),target)

.PHONY: all test clean

all:
	$(CARGO) build --release -p uci --bin cb2026 $(if $(FEATURES),--features $(FEATURES))
	cp $(TARGET_DIR)/release/cb2026 $(EXE)

test:
	$(CARGO) test --release

clean:
	$(CARGO) clean
