// Architecture rules, enforced by `npm run lint` (depcruise src --config .dependency-cruiser.cjs).
//
// Feature modules live in src/modules/<name>/ and expose their public surface through index.ts;
// src/jobs/ likewise exposes itself through src/jobs/index.ts. Everything else must go through
// those barrels. Type-only imports count for the boundary rules (tsPreCompilationDeps: true) but
// not for the cycle rule (they vanish at runtime).

/** Spec files are exempt from the boundary and cycle rules. */
const SPEC = '\\.(spec|medium-spec)\\.ts$';
/** A module's (or src/jobs') public surface. */
const MODULE_INDEX = '^src/modules/[^/]+/index\\.ts$';
const JOBS_INDEX = '^src/jobs/index\\.ts$';
/** A module's paths (`<name>.routes.ts`): public too, and free of imports, so entry points and tools read them without loading the module. */
const MODULE_ROUTES = '^src/modules/[^/]+/[^/]+\\.routes\\.ts$';
/** Entities directly in a module folder: src/modules/<name>/<file>.entity.ts */
const MODULE_ENTITY = '^src/modules/[^/]+/[^/]+\\.entity\\.ts$';
const APP_MODULE = '^src/app\\.module\\.ts$';
/** Modules without an index.ts that only the root app module wires in. */
const INDEXLESS_MODULES = ['^src/modules/health/health\\.module\\.ts$'];

const MODULE_INTERNALS_COMMENT =
  "Import another module (or src/jobs) only through its index.ts; add the export there if it is part of the module's public surface.";

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    // ---- 0. services speak in results, not HTTP --------------------------------------------
    {
      name: 'no-http-in-services',
      comment:
        'A service returns results; controllers and the HTTP layer (common/http: envelopes, route config, query DTOs) make answers of them. ' +
        'The idempotency module stores HTTP answers by design and is exempt.',
      severity: 'error',
      from: { path: '^src/modules/[^/]+/[^/]+\\.service\\.ts$', pathNot: ['^src/modules/idempotency/', SPEC] },
      to: { path: '^src/common/http/' },
    },
    // ---- 1. no-module-internals -------------------------------------------------------------
    {
      name: 'no-module-internals',
      comment: MODULE_INTERNALS_COMMENT,
      severity: 'error',
      // a non-entity file in module A ...
      from: { path: '^src/modules/([^/]+)/', pathNot: [SPEC, '\\.entity\\.ts$'] },
      // ... may reach module B (B != A) only through B's index.ts
      to: { path: '^src/modules/[^/]+/', pathNot: ['^src/modules/$1/', MODULE_INDEX] },
    },
    {
      name: 'no-module-internals',
      comment: `${MODULE_INTERNALS_COMMENT} (Entities may also import another module's *.entity.ts for TypeORM relations.)`,
      severity: 'error',
      from: { path: '^src/modules/([^/]+)/.*\\.entity\\.ts$', pathNot: SPEC },
      to: { path: '^src/modules/[^/]+/', pathNot: ['^src/modules/$1/', MODULE_INDEX, '\\.entity\\.ts$'] },
    },
    {
      name: 'no-module-internals',
      comment: `${MODULE_INTERNALS_COMMENT} (Root wiring, cli/, common/, jobs/ etc. included.)`,
      severity: 'error',
      from: { path: '^src/', pathNot: ['^src/modules/', SPEC, APP_MODULE] },
      to: { path: '^src/modules/', pathNot: [MODULE_INDEX, MODULE_ROUTES] },
    },
    {
      name: 'no-module-internals',
      comment: `${MODULE_INTERNALS_COMMENT} (src/app.module.ts may import the index-less health module.)`,
      severity: 'error',
      from: { path: APP_MODULE },
      to: { path: '^src/modules/', pathNot: [MODULE_INDEX, ...INDEXLESS_MODULES] },
    },
    {
      name: 'no-module-internals',
      comment: `${MODULE_INTERNALS_COMMENT} (Outside src/jobs, import jobs only via src/jobs/index.ts.)`,
      severity: 'error',
      from: { path: '^src/', pathNot: ['^src/jobs/', SPEC] },
      to: { path: '^src/jobs/', pathNot: JOBS_INDEX },
    },

    // ---- 1b. layers ---------------------------------------------------------------------------
    {
      name: 'no-upward-to-database',
      comment:
        'src/database holds the data source and the migrations, the top of the graph: modules, jobs and the shared code below them reach ' +
        'persistence through src/common/persistence (the pool token, keyset paging, statement parts) and register their own entities.',
      severity: 'error',
      from: { path: '^src/(modules|common|jobs|config|redis)/', pathNot: SPEC },
      to: { path: '^src/database/' },
    },
    {
      name: 'no-upward-from-common',
      comment: 'src/common is the lowest layer: it imports no feature module, no job, no database wiring.',
      severity: 'error',
      from: { path: '^src/common/', pathNot: SPEC },
      to: { path: '^src/(modules|jobs|database)/' },
    },

    // ---- 2. no-test-or-bench-from-src -------------------------------------------------------
    {
      name: 'no-test-or-bench-from-src',
      comment: 'Production code must not depend on test/, bench/ or sandbox/ code.',
      severity: 'error',
      from: { path: '^src/', pathNot: SPEC },
      to: { path: '^(test|bench|sandbox)/' },
    },

    // ---- 3. no-module-cycles ----------------------------------------------------------------
    {
      name: 'no-module-cycles',
      comment: 'Circular dependency, type-only imports included: a module that needs a type of its dependent has the layering wrong.',
      severity: 'error',
      from: { path: '^src/', pathNot: SPEC },
      to: { circular: true },
    },

    // ---- 4. hygiene -------------------------------------------------------------------------
    {
      name: 'not-to-unresolvable',
      comment: "This module depends on a module that cannot be found ('resolved to disk').",
      severity: 'error',
      from: { path: '^src/' },
      to: { couldNotResolve: true },
    },
    {
      name: 'no-non-package-json',
      comment: "This module depends on an npm package that isn't in the 'dependencies' section of package.json.",
      severity: 'error',
      from: {},
      to: { dependencyTypes: ['npm-no-pkg', 'npm-unknown'] },
    },
  ],
  options: {
    doNotFollow: { path: ['node_modules'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      mainFields: ['module', 'main', 'types', 'typings'],
    },
    skipAnalysisNotInRules: true,
  },
};
