// Logistic regression by AdaGrad on sparse examples, and Platt scaling. Pure and deterministic:
// examples are visited in the order given.

export interface Example {
  readonly index: Int32Array;
  readonly value: Float32Array;
  readonly y: 0 | 1;
  /** Example weight (class balancing). */
  weight: number;
}

export interface FitOptions {
  /** L2 strength per example visit (applied to the weights an example touches). */
  readonly l2: number;
  readonly epochs: number;
  /** AdaGrad base learning rate. */
  readonly rate: number;
}

const sigmoid = (z: number): number => (z >= 0 ? 1 / (1 + Math.exp(-z)) : Math.exp(z) / (1 + Math.exp(z)));

/** Weighted log-loss of weights w over examples (mean), for tests and reports. */
export function logLoss(w: Float32Array, xs: readonly Example[]): number {
  let loss = 0;
  let total = 0;
  for (const e of xs) {
    let z = 0;
    for (let i = 0; i < e.index.length; i++) z += (w[e.index[i] as number] as number) * (e.value[i] as number);
    const p = Math.min(1 - 1e-12, Math.max(1e-12, sigmoid(z)));
    loss -= e.weight * (e.y === 1 ? Math.log(p) : Math.log(1 - p));
    total += e.weight;
  }
  return total === 0 ? 0 : loss / total;
}

export function fitLogistic(xs: readonly Example[], dims: number, o: FitOptions): Float32Array {
  const w = new Float32Array(dims);
  const g2 = new Float32Array(dims).fill(1e-8);
  for (let epoch = 0; epoch < o.epochs; epoch++) {
    for (const e of xs) {
      let z = 0;
      for (let i = 0; i < e.index.length; i++) z += (w[e.index[i] as number] as number) * (e.value[i] as number);
      const err = (sigmoid(z) - e.y) * e.weight;
      for (let i = 0; i < e.index.length; i++) {
        const j = e.index[i] as number;
        const g = err * (e.value[i] as number) + o.l2 * (w[j] as number);
        g2[j] = (g2[j] as number) + g * g;
        w[j] = (w[j] as number) - (o.rate * g) / Math.sqrt(g2[j] as number);
      }
    }
  }
  return w;
}

/** Platt scaling: a, b minimising the weighted log-loss of σ(a·z + b), by Newton's method. */
export function fitPlatt(xs: readonly { z: number; y: 0 | 1; weight: number }[]): { a: number; b: number } {
  let a = 1;
  let b = 0;
  for (let it = 0; it < 100; it++) {
    let ga = 0, gb = 0, haa = 0, hab = 0, hbb = 0;
    for (const x of xs) {
      const p = sigmoid(a * x.z + b);
      const d = (p - x.y) * x.weight;
      const h = Math.max(1e-12, p * (1 - p)) * x.weight;
      ga += d * x.z;
      gb += d;
      haa += h * x.z * x.z;
      hab += h * x.z;
      hbb += h;
    }
    haa += 1e-9;
    hbb += 1e-9;
    const det = haa * hbb - hab * hab;
    if (Math.abs(det) < 1e-18) break;
    const da = (hbb * ga - hab * gb) / det;
    const db = (haa * gb - hab * ga) / det;
    a -= da;
    b -= db;
    if (Math.abs(da) < 1e-9 && Math.abs(db) < 1e-9) break;
  }
  return { a, b };
}
