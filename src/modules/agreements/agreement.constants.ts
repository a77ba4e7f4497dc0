/** Path of the agreement page; the token follows it. Part of every link already given out. */
export const AGREEMENT_PAGE_PATH = '/agreements';

/** A link token: 256 random bits, base64url without padding. */
export const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** Longest user agent kept as acceptance evidence. */
export const MAX_USER_AGENT_LENGTH = 512;
