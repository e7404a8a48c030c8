// The bench's baseline app (scripts/bench.ts): Next.js as it comes, with one bare route.
export default { poweredByHeader: false };
