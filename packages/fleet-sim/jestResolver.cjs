/*
 * @kubernetes-models/* and kubernetes-models publish ESM only, with an `exports` map that has no `require` condition, so Jest's
 * CommonJS resolver cannot find them. Resolve those packages with the `import` condition; Backstage's SWC
 * transform then compiles them like any other module. Everything else resolves as usual.
 *
 * package.json gives this project its own jest `id`: Backstage derives the id from the transform alone, so every
 * backend package shares one, and a Jest worker reuses one resolver per id — in a full run with a cold cache,
 * the resolver of a project without this file, which answered "Cannot find module".
 */
module.exports = (request, options) => {
  if (
    request.startsWith('@kubernetes-models/') ||
    request.startsWith('kubernetes-models/')
  ) {
    return options.defaultResolver(request, {
      ...options,
      conditions: ['import', 'default'],
    });
  }
  return options.defaultResolver(request, options);
};
