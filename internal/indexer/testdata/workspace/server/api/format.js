export function formatTotal(amount) {
  return `$${amount.toFixed(2)}`;
}
