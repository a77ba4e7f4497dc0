#!/usr/bin/env bash
# `npm test`: every unit, medium and e2e suite. Most suites run three at a time (on a 2-core
# machine, a third still finds a core free: the suites spend much of their time waiting on timers,
# rails and the processes they start, and it was 446 s for what took 603 s two at a time); the
# e2e suites that assert on time (a bound on a takeover, a timeout, a start-up budget, requests
# per elapsed second, readiness within its 1 s dependency budget under a burst) or kill a
# process on a schedule run afterwards, alone and one after another, because a neighbour's CPU
# would move their clocks, not their outcome. Every suite has its own database, Redis database or
# queue prefix, and ports, so suites running side by side never see each other's data.
set -euo pipefail
cd "$(dirname "$0")/.."

timed=(
  test/e2e/auth.e2e-spec.ts
  test/e2e/edge-bodies.e2e-spec.ts
  test/e2e/edge-limits.e2e-spec.ts
  test/e2e/international-worker-crash.e2e-spec.ts
  test/e2e/job-schedules.e2e-spec.ts
  test/e2e/kyb.e2e-spec.ts
  test/e2e/kyb-worker-crash.e2e-spec.ts
  test/e2e/platform.e2e-spec.ts
  test/e2e/shutdown.e2e-spec.ts
  test/e2e/startup.e2e-spec.ts
  test/e2e/vault-worker-crash.e2e-spec.ts
  test/e2e/webhook-delivery-faults.e2e-spec.ts
)
ignore=()
for path in "${timed[@]}"; do ignore+=("/${path//./\\.}\$"); done

# Built once for both runs (the suites' global set-up would otherwise build in each).
npm run --silent build
export TEST_BUILD_DONE=1
npx jest --maxWorkers=3 --testPathIgnorePatterns "${ignore[@]}"
npx jest --runInBand --selectProjects e2e --runTestsByPath "${timed[@]}"
