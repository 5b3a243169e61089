// The library ships no types; this is the part of its output Flux Fleet reads (untyped families only, see
// parseExposition.ts).
declare module 'parse-prometheus-text-format' {
  interface ParsedFamily {
    name: string;
    help: string;
    type: string;
    metrics: Array<{
      value?: string;
      labels?: Record<string, string>;
      timestamp_ms?: string;
    }>;
  }
  function parsePrometheusTextFormat(text: string): ParsedFamily[];
  export = parsePrometheusTextFormat;
}
