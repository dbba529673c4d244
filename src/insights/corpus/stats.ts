// Small statistics kit for the trend rule: ordinary least squares with a two-sided Student t test.
// Implemented here (a few dozen lines) rather than pulling in a statistics dependency.

export interface Regression {
  n: number;
  slope: number;
  /** Two-sided p-value of H0: slope = 0; null when it cannot be computed (n < 3 or no variation in x). */
  pValue: number | null;
}

/**
 * OLS of y on x; `ws`, when given, counts point i ws[i] times (integers), so repeated points are
 * passed once. Without it every weight is 1, which multiplies exactly: the same sums to the bit.
 */
export function linearRegression(xs: ArrayLike<number>, ys: ArrayLike<number>, ws?: ArrayLike<number>): Regression {
  const points = xs.length;
  const w = (i: number) => (ws === undefined ? 1 : ws[i]);
  let n = 0;
  let sx = 0;
  let sy = 0;
  for (let i = 0; i < points; i++) {
    n += w(i);
    sx += w(i) * xs[i];
    sy += w(i) * ys[i];
  }
  const mx = sx / n;
  const my = sy / n;
  let sxx = 0;
  let sxy = 0;
  for (let i = 0; i < points; i++) {
    sxx += w(i) * (xs[i] - mx) ** 2;
    sxy += w(i) * (xs[i] - mx) * (ys[i] - my);
  }
  if (n < 3 || sxx === 0) return { n, slope: 0, pValue: null };
  const slope = sxy / sxx;
  let sse = 0;
  for (let i = 0; i < points; i++) sse += w(i) * (ys[i] - my - slope * (xs[i] - mx)) ** 2;
  const df = n - 2;
  const se = Math.sqrt(sse / df / sxx);
  if (se === 0) return { n, slope, pValue: slope === 0 ? 1 : 0 };
  return { n, slope, pValue: studentTwoSided(slope / se, df) };
}

/** P(|T| ≥ |t|) for Student's t with df degrees of freedom: I_{df/(df+t²)}(df/2, 1/2). */
export function studentTwoSided(t: number, df: number): number {
  return Math.min(1, Math.max(0, incompleteBeta(df / (df + t * t), df / 2, 0.5)));
}

/** Regularised incomplete beta I_x(a, b) by Lentz's continued fraction (Numerical Recipes §6.4). */
function incompleteBeta(x: number, a: number, b: number): number {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const front = Math.exp(logGamma(a + b) - logGamma(a) - logGamma(b) + a * Math.log(x) + b * Math.log(1 - x));
  // The fraction converges fast only for x < (a+1)/(a+b+2); use the symmetry I_x(a,b) = 1 - I_{1-x}(b,a) otherwise.
  if (x < (a + 1) / (a + b + 2)) return (front * betaFraction(x, a, b)) / a;
  return 1 - (front * betaFraction(1 - x, b, a)) / b;
}

function betaFraction(x: number, a: number, b: number): number {
  const tiny = 1e-300;
  let c = 1;
  let d = 1 - ((a + b) * x) / (a + 1);
  if (Math.abs(d) < tiny) d = tiny;
  d = 1 / d;
  let h = d;
  for (let m = 1; m <= 300; m++) {
    const m2 = 2 * m;
    let aa = (m * (b - m) * x) / ((a + m2 - 1) * (a + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + aa / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    h *= d * c;
    aa = (-(a + m) * (a + b + m) * x) / ((a + m2) * (a + m2 + 1));
    d = 1 + aa * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + aa / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    const delta = d * c;
    h *= delta;
    if (Math.abs(delta - 1) < 1e-12) break;
  }
  return h;
}

/** Lanczos approximation (g = 7, n = 9), accurate to ~15 digits for positive arguments. */
function logGamma(z: number): number {
  const g = 7;
  const c = [
    0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059, 12.507343278686905,
    -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
  ];
  if (z < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * z)) - logGamma(1 - z);
  const x = z - 1;
  let sum = c[0];
  for (let i = 1; i < g + 2; i++) sum += c[i] / (x + i);
  const t = x + g + 0.5;
  return 0.5 * Math.log(2 * Math.PI) + (x + 0.5) * Math.log(t) - t + Math.log(sum);
}
