# Every target that needs the dependencies installs them first (npm ci) when
# node_modules is missing or older than package-lock.json.
SHELL := bash
DEPS := node_modules/.package-lock.json
CLI := bin/passepartout

.PHONY: setup tangle check test watch run bench clean

$(DEPS): package.json package-lock.json
	npm ci --no-audit --no-fund
	@touch $@

setup:
	npm ci --no-audit --no-fund

# Tangle, then type-check the generated TypeScript and the skills' capabilities.
tangle: $(DEPS)
	$(CLI) check --prune

# The generated code's types (after tangling), then the toolchain's, benchmarks included.
check: $(DEPS)
	$(CLI) check --prune
	npx tsc -p tsconfig.json --noEmit

# The core's and the skills' tests are tangled from org/: tangle and check everything first.
test: check
	npx vitest run

watch: $(DEPS)
	$(CLI) watch

# Tangle and check everything, boot the core's skills once and print the catalog, then send
# one line through the whole loop with the offline backend to show the gate trace.
run: $(DEPS)
	$(CLI) check --prune
	$(CLI) skills
	PASSEPARTOUT_BACKENDS=offline $(CLI) ask 'hello from make run'

bench: $(DEPS)
	node bin/launch.mjs bench/tangle.bench.ts
	node bin/launch.mjs bench/check.bench.ts
	$(CLI) tangle org/core
	node bin/launch.mjs bench/engine.bench.ts
	node bin/launch.mjs bench/pipeline.bench.ts
	node bin/launch.mjs bench/memory.bench.ts

clean:
	rm -rf generated node_modules/.cache/passepartout
