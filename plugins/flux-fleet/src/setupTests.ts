import '@testing-library/jest-dom';
import { configure } from '@testing-library/react';

// Interaction tests render MUI tables in jsdom, which takes seconds on a busy shared machine; the default 5 s
// makes them flaky without saying anything about the plugin (performance claims belong in benchmarks).
jest.setTimeout(20_000);

// The same for waitFor and findBy*: their default 1 s ran out in `make test` on 2 cores while PostgreSQL and the
// other suites ran (ObjectActions waiting for its permission answers, 2026-12-03), though each passes alone. A
// longer wait only slows a test that fails anyway.
configure({ asyncUtilTimeout: 5_000 });
