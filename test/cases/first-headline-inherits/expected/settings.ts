export const inherited = true;
