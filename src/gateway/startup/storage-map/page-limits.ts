/** `first` defaults to 20 and may not exceed 100 (over the cap is an error, never a silent clamp). */
export const DEFAULT_FIRST = 20;
export const MAX_FIRST = 100;
