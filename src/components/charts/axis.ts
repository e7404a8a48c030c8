/** The width of a value axis whose longest label is among `labels`, so that no label is cut (12 px digits). */
export function axisWidth(labels: string[]): number {
  const longest = labels.reduce((widest, label) => Math.max(widest, label.length), 1);
  return Math.max(40, longest * 8 + 12);
}
