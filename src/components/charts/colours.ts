/** Line colours of distinct hues (blue, orange, green, magenta, violet), each at least 4.5:1 against white. */
export const SERIES_COLOURS = ['#3b5bdb', '#c2410c', '#047857', '#9d174d', '#6d28d9'];
