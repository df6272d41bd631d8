export const n = 5;
