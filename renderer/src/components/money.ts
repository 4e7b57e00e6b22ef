// Money as the console writes it: a fixed number of decimals and its unit (the gateway prices in USD).

/** `1.5` → `1.50 USD`; `decimals` fixed (4 for small amounts such as a day's spend). */
export function formatUsd(amount: number, decimals = 2): string {
  return `${amount.toFixed(decimals)} USD`;
}
