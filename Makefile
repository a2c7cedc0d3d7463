# gbtbench: `make build` runs the main job on corpus/, `make test` runs the test suite.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-$(shell cksum pyproject.toml | cut -d' ' -f1)
# pyproject.toml's `labelstudio` extra, installed on its own (see the comment there)
LABEL_STUDIO_SDK := $(shell sed -n 's/^labelstudio = \["\(.*\)"\]$$/\1/p' pyproject.toml)

.PHONY: install compile build test lint corpus bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	$(BIN)/pip install --quiet --no-deps $(LABEL_STUDIO_SDK)
	rm -f $(VENV)/.installed-*
	touch $(STAMP)

install: $(STAMP) compile

# An editable install leaves the project's modules uncompiled (pip compiles only what it copies), and
# PYTHONDONTWRITEBYTECODE keeps Python from caching them: every build, worker and CLI process would compile
# the project again (about 0.3 s each). Every target that installs writes the caches (a no-op when they are
# up to date). The test modules are cached by pytest itself, hence PYTHONDONTWRITEBYTECODE unset there.
PACKAGES := parsers injectors validation evaluation release review flows corpus
compile: $(STAMP)
	$(BIN)/python -m compileall -q $(PACKAGES)

build: install
	$(BIN)/gbtbench build --corpus corpus --out outputs

# One xdist worker more than the cores: a share of the suite's time is spent waiting (deadlines, test servers,
# the browser, builds in child processes), which a third worker on two cores fills.
# TEST_WORKERS=0 runs the suite in one process (pytest-xdist off).
TEST_WORKERS ?= $(shell echo $$(( $$(nproc 2>/dev/null || echo 1) + 1 )))
test: install
	env -u PYTHONDONTWRITEBYTECODE $(BIN)/pytest -n $(TEST_WORKERS) --dist loadgroup

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

# Regenerate corpus/docx and corpus/pdf from corpus/sources (only documents whose source changed).
CORPUS_FONTS := fonts-arphic-uming fonts-wqy-microhei fonts-dejavu-core
corpus: install
	@dpkg -s $(CORPUS_FONTS) >/dev/null 2>&1 || (apt-get update -qq && apt-get install -y -qq $(CORPUS_FONTS))
	$(BIN)/pip install --quiet -e '.[dev,corpus]'
	$(BIN)/python -m corpus.generate

bench: install
	$(BIN)/python -m bench.parse
	$(BIN)/python -m bench.types

clean:
	rm -rf outputs/v* outputs/latest outputs/.cache .pytest_cache .ruff_cache
