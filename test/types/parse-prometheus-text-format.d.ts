/** parse-prometheus-text-format 1.1.1 ships no types; its output mirrors prom2json's. */
declare module 'parse-prometheus-text-format' {
  interface PromSample {
    labels?: Record<string, string>;
    /** Counters, gauges and untyped samples. */
    value?: string;
    /** Histograms: cumulative count per upper bound (`le`). */
    buckets?: Record<string, string>;
    /** Summaries: value per quantile. */
    quantiles?: Record<string, string>;
    count?: string;
    sum?: string;
  }

  interface PromFamily {
    name: string;
    help: string;
    type: 'COUNTER' | 'GAUGE' | 'HISTOGRAM' | 'SUMMARY' | 'UNTYPED';
    metrics: PromSample[];
  }

  export default function parsePrometheusTextFormat(text: string): PromFamily[];
}
