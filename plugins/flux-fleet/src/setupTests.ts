import '@testing-library/jest-dom';

// Interaction tests render MUI tables in jsdom, which takes seconds on a busy shared machine; the default 5 s
// makes them flaky without saying anything about the plugin (performance claims belong in benchmarks).
jest.setTimeout(20_000);
