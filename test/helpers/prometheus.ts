import parsePrometheusTextFormat from 'parse-prometheus-text-format';

/**
 * Prometheus text-format exposition read by a real parser (parse-prometheus-text-format, a
 * port of the Python client's), never by regular expressions over samples: a malformed
 * exposition fails the parse, as it would fail a Prometheus scrape.
 */

export type Labels = Record<string, string>;

export interface Sample {
  labels: Labels;
  /** Counters and gauges: the value; histograms: the observation count. */
  value: number;
  /** Histograms only. */
  sum?: number;
  buckets?: Record<string, number>;
}

export interface Family {
  help: string;
  type: string;
  samples: Sample[];
}

export class Exposition {
  constructor(readonly families: Map<string, Family>) {}

  static parse(text: string): Exposition {
    // The parser folds a histogram's series into one sample and keeps the labels only of an
    // unlabelled histogram, so histograms are parsed as their plain series and grouped here.
    const histograms = new Set<string>();
    const plain = text.replace(/^# TYPE (\S+) histogram$/gm, (_line, name: string) => {
      histograms.add(name);
      return `# TYPE ${name} untyped`;
    });
    const families = new Map<string, Family>();
    for (const family of parsePrometheusTextFormat(plain)) {
      const samples = family.metrics.map((metric) => ({
        labels: metric.labels ?? {},
        value: Number(metric.value),
      }));
      const seen = families.get(family.name);
      // A histogram's `_bucket`, `_sum` and `_count` lines alternate per label set.
      if (seen) seen.samples.push(...samples);
      else families.set(family.name, { help: family.help, type: family.type, samples });
    }
    for (const name of histograms) families.set(name, histogramOf(name, families));
    return new Exposition(families);
  }

  family(name: string): Family {
    const found = this.families.get(name);
    if (!found)
      throw new Error(`no metric family ${name}; have ${[...this.families.keys()].join(', ')}`);
    return found;
  }

  /** The samples of `name` whose labels include every one of `labels`. */
  samples(name: string, labels: Labels = {}): Sample[] {
    return (this.families.get(name)?.samples ?? []).filter((sample) =>
      Object.entries(labels).every(([label, value]) => sample.labels[label] === value),
    );
  }

  /** The sum over matching samples (0 when there is none: a counter not yet incremented). */
  sum(name: string, labels: Labels = {}): number {
    return this.samples(name, labels).reduce((total, sample) => total + sample.value, 0);
  }

  /** The one matching sample's value; undefined when none matches. */
  value(name: string, labels: Labels = {}): number | undefined {
    const matching = this.samples(name, labels);
    if (matching.length > 1) throw new Error(`${name}: ${matching.length} samples match`);
    return matching[0]?.value;
  }
}

/** A histogram's samples, one per label set: its buckets by `le`, its sum and its count. */
function histogramOf(name: string, families: Map<string, Family>): Family {
  const key = (labels: Labels) => JSON.stringify(Object.entries(labels).sort());
  const grouped = new Map<string, Sample>();
  const sampleOf = (labels: Labels) => {
    let sample = grouped.get(key(labels));
    if (!sample) {
      sample = { labels, value: 0, sum: 0, buckets: {} };
      grouped.set(key(labels), sample);
    }
    return sample;
  };
  for (const { labels, value } of families.get(`${name}_bucket`)?.samples ?? []) {
    const { le, ...rest } = labels;
    sampleOf(rest).buckets![le!] = value;
  }
  for (const { labels, value } of families.get(`${name}_sum`)?.samples ?? []) {
    sampleOf(labels).sum = value;
  }
  for (const { labels, value } of families.get(`${name}_count`)?.samples ?? []) {
    sampleOf(labels).value = value;
  }
  const help = families.get(name)?.help ?? '';
  return { help, type: 'HISTOGRAM', samples: [...grouped.values()] };
}
