# Every target that needs the dependencies installs them first (npm ci) when
# node_modules is missing or older than package-lock.json.
SHELL := bash
DEPS := node_modules/.package-lock.json
CLI := bin/passepartout
# The installed commands, run as they are: npx would spend a second of CPU finding them first.
BIN := node_modules/.bin

.PHONY: setup tangle check check-types check-format test watch run docs bench pack clean

$(DEPS): package.json package-lock.json
	npm ci --no-audit --no-fund
	@touch $@

setup:
	npm ci --no-audit --no-fund

# Tangle, then type-check the generated TypeScript and the skills' capabilities.
tangle: $(DEPS)
	$(CLI) check --prune

# The generated code's types (after tangling), then the toolchain's, benchmarks included, and the architecture
# (ARCHITECTURE.md's layers, .dependency-cruiser.cjs: no cycle of imports, none against the layers); beside them,
# the code's format (the blocks of org/ and tools/ as passepartout fmt writes them: `bin/passepartout fmt` fixes
# what this finds). The format is one Node thread for about 10 s, as long as both checks: side by side, on the
# other core, it adds nothing to the wait. Each one's output comes whole, once it is done.
check: $(DEPS)
	@$(MAKE) --no-print-directory -j2 --output-sync=target check-types check-format

check-types:
	$(CLI) check --prune
	$(BIN)/tsc -p tsconfig.json --noEmit
	node bin/launch.mjs tools/architecture/check.ts

check-format:
	$(CLI) fmt --check

# The core's and the skills' tests are tangled from org/: tangle and check everything first. Says how long it all
# took (vitest's summary gives the tests' own duration).
test: STARTED := $(shell date +%s)
test: check
	@$(BIN)/vitest run; status=$$?; echo "make test: $$(($$(date +%s) - $(STARTED))) s (tangle, check and tests)"; exit $$status

watch: $(DEPS)
	$(CLI) watch

# Run the project's core in the foreground until Ctrl-C: check everything, boot the core, say what it
# booted and how to talk to it, then apply each saved document (tangled, checked, reloaded).
run: $(DEPS)
	$(CLI) run

# The references of docs/reference/ (commands, rules, settings, environment), written from the code that defines them:
# run it after changing one of those (test/docs/references.test.ts fails while a committed reference differs).
docs: $(DEPS)
	$(CLI) check --prune
	node bin/launch.mjs tools/docs/references.ts

bench: $(DEPS)
	node bin/launch.mjs bench/tangle.bench.ts
	node bin/launch.mjs bench/detangle.bench.ts
	node bin/launch.mjs bench/weave.bench.ts
	node bin/launch.mjs bench/check.bench.ts
	$(CLI) tangle org/core
	node bin/launch.mjs bench/mutation.bench.ts
	node bin/launch.mjs bench/engine.bench.ts
	node bin/launch.mjs bench/live.bench.ts
	node bin/launch.mjs bench/daemon.bench.ts
	node bin/launch.mjs bench/client.bench.ts
	node bin/launch.mjs bench/pipeline.bench.ts
	node bin/launch.mjs bench/stream.bench.ts
	node bin/launch.mjs bench/turn.bench.ts
	node bin/launch.mjs bench/sdk.bench.ts
	node bin/launch.mjs bench/host-trips.bench.ts
	node bin/launch.mjs bench/memory.bench.ts
	node bin/launch.mjs bench/sqlite.bench.ts
	node bin/launch.mjs bench/footprint.bench.ts
	node bin/launch.mjs bench/mcp.bench.ts
	node bin/launch.mjs bench/schedules.bench.ts
	node bin/launch.mjs bench/fmt.bench.ts
	node bin/launch.mjs bench/boot.bench.ts
	node bin/launch.mjs bench/project.bench.ts
	node bin/launch.mjs bench/emacs.bench.ts

# The package npm installs, as a tarball in $(PACK): tangle and check everything, build what an installation runs
# without its sources (dist/: every entry point bundled; types/: the declarations of passepartout and
# passepartout/testing), then npm pack, which refuses a build older than its sources (tools/pack/).
PACK := pack
pack: tangle
	node bin/launch.mjs tools/pack/main.ts $(PACK)

clean:
	rm -rf generated dist types node_modules/.cache/passepartout
