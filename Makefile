# `make run` and `make test` are the only two commands a fresh machine needs (see README.md).
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
# Debian packages QtWebEngine needs on a bare machine (libraries Chromium loads, fonts, a virtual display).
# Fonts: DejaVu and Liberation for Latin, Greek, Cyrillic, Hebrew and Arabic; Droid Sans Fallback for Chinese and
# Japanese, Nanum for Korean, TLWG for Thai, Noto Color Emoji: pages in those scripts are labelled by eye, and an
# agent's screenshots show them, only where a font draws them (else empty boxes).
DEB_PACKAGES := libnss3 libxkbcommon0 libxkbcommon-x11-0 libxcomposite1 libxdamage1 libxrandr2 libgbm1 \
	libasound2 libegl1 libgl1 libopengl0 libxkbfile1 libxshmfence1 libdbus-1-3 libfontconfig1 libxtst6 \
	libxcb-cursor0 libxcb-icccm4 libxcb-keysyms1 libxcb-shape0 libxcb-randr0 libxcb-render-util0 \
	libxcb-xinerama0 libxcb-image0 libxi6 libglib2.0-0 libgssapi-krb5-2 libudev1 fonts-dejavu-core \
	fonts-liberation fonts-droid-fallback fonts-nanum fonts-thai-tlwg fonts-noto-color-emoji xvfb xauth

.PHONY: run test test-ray lint bench system-deps clean package

# A strict editable install: the venv sees a tree of links whose paths match the import names
# (recordlens/core/...), which editors and type checkers can follow, unlike setuptools' default import hook.
# Links are made per file, so adding or removing a module (a folder's mtime changes) installs again.
SOURCE_DIRS := $(shell find core annotator resources -type d -not -name __pycache__)

$(VENV)/.installed: pyproject.toml $(SOURCE_DIRS)
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	rm -rf build/__editable__.*
	$(PY) -m pip install --quiet -e '.[test]' --config-settings editable_mode=strict
	touch $@

# Installs only what is missing, so repeated runs cost one dpkg query.
# A Debian or Ubuntu system Python makes virtual environments only with its pythonX.Y-venv package (ensurepip).
system-deps:
	@venv=$$( [ -x $(PY) ] || $(PYTHON) -c 'import ensurepip' 2>/dev/null || $(PYTHON) -c \
		'import sys; v = sys.version_info; print(f"python{v.major}.{v.minor}-venv" if sys.prefix == "/usr" else "")'); \
	missing=$$(for p in $(DEB_PACKAGES) $$venv; do dpkg -s $$p >/dev/null 2>&1 || echo $$p; done); \
	if [ -n "$$missing" ]; then \
		echo "installing Debian packages: $$missing"; \
		SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
		$$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing >/dev/null; \
	fi

# With a display the window opens; without one (a headless CI-like machine) the app runs under a virtual X
# server and saves a screenshot instead, since there is no screen to show a window on.
run: system-deps $(VENV)/.installed
	@if [ -n "$$DISPLAY$$WAYLAND_DISPLAY" ]; then \
		$(VENV)/bin/recordlens-annotator; \
	else \
		mkdir -p out && xvfb-run -a $(VENV)/bin/recordlens-annotator --screenshot out/annotator.png && \
		echo "no display: the annotator ran under xvfb; its window is in out/annotator.png"; \
	fi

# One worker per core (at most 4): app tests spend much of their time waiting on Chromium and on timers, so
# two workers on a 2-core machine take the suite in well under the time one would (README.md's Layout table, its
# `tests/` row, gives the count of tests and the times measured). Each worker is its own
# process with its own QApplication; tests use only their own temporary folders and ports. A file's tests run in
# one worker (loadfile), so a fixture its tests share (a capture, fitted models, parsed inputs) is made once.
test: system-deps $(VENV)/.installed
	$(VENV)/bin/ruff check .
	$(VENV)/bin/lint-imports
	QT_QPA_PLATFORM=offscreen $(PY) -m pytest -q --durations=10 -n auto --maxprocesses=4 --dist loadfile

# Ray is an optional heavy part: this command installs the extra and runs the Ray engine's tests on a local
# instance of 2 workers (`make test` skips them while Ray is not installed).
test-ray: $(VENV)/.installed
	$(PY) -m pip install --quiet -e '.[ray]' --config-settings editable_mode=strict
	RAY_USAGE_STATS_ENABLED=0 $(PY) -m pytest -q tests/core/test_ray_engine.py tests/core/test_shared_budget.py tests/core/test_ray_stops.py tests/core/test_ray_waits_and_start.py tests/core/test_ray_address_checks.py tests/core/test_ray_counts_kept.py tests/core/test_ray_budget_lost_and_lost_requests_uncounted.py \
		tests/core/test_ray_stops_rate_and_settings.py tests/core/test_ray_cluster_lost_said.py \
		tests/core/test_ray_address_forms_and_token_advice.py tests/core/test_ray_empty_address_refused_before_anything_said.py \
		tests/core/test_ray_lost_raylet_named.py tests/core/test_ray_stopped_agent_run_keeps_its_episodes_under_way.py \
		tests/core/test_ray_stop_line_names_the_page_under_way.py tests/core/test_ray_worker_death_said.py \
		tests/core/test_ray_stops_between_engines_and_as_units_end.py \
		tests/core/test_ray_worker_caller_tells_attempts_over_through_the_hook.py \
		tests/core/test_ray_second_ctrl_c_while_actors_start.py tests/core/test_ray_agent_episodes_beyond_the_workers.py

# `make bench` runs, each with its defaults, the benchmark scripts that need neither a display nor an optional part:
# about 15 minutes on a 2-core machine (training.py 3 to 4, extract.py and synth.py about 2 each, parse_memory.py
# 1.5, learn_memory.py and propose_memory.py a few each, the others under a minute). It only checks (--check), never
# rewrites, the two files resources/models ships that are made from the development pages. A script whose pages
# (../shared/data) are missing says "missing data" (exit status 3) and is skipped; any other failure stops the run.
# Not run here: offline_extractor.py (the 3-split cross-validation, an hour and more), app.py and app_window.py
# (QtWebEngine on a display), engine.py (Ray, the extra `make test-ray` installs).
BENCH_SCRIPTS := represent extract snapshot store long_list label_policy synth training parse_memory learn_memory \
	propose_memory export_memory mdr_vs_reference
bench: $(VENV)/.installed
	@run() { echo "== bench/$$*"; $(PY) bench/"$$@"; status=$$?; \
		if [ $$status = 3 ]; then echo "== skipped bench/$$1: its data is missing"; \
		elif [ $$status != 0 ]; then exit $$status; fi; }; \
	for b in $(BENCH_SCRIPTS); do run $$b.py; done; \
	run repeats_tuning_pages.py --check; \
	run selector_training_texts.py --check

# Not part of run or test: the frozen app (dist/RecordLens/ and a .tar.gz of it) takes minutes to build and
# ends with its own smoke test of the built folder (see packaging/README.md).
package: system-deps
	$(PYTHON) packaging/build.py

lint: $(VENV)/.installed
	$(VENV)/bin/ruff check .
	$(VENV)/bin/lint-imports

clean:
	rm -rf $(VENV) build dist *.egg-info
