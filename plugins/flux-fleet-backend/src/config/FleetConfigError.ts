/**
 * Bad configuration: start-up stops with this message, which names the configuration key at fault and says
 * what would be valid.
 */
export class FleetConfigError extends Error {
  constructor(key: string, problem: string) {
    super(`Invalid Flux Fleet configuration at '${key}': ${problem}`);
    this.name = 'FleetConfigError';
  }
}
