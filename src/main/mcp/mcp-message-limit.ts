/**
 * Largest single message read from a server, over stdio or HTTP; a bigger one closes the connection (the
 * SDK's default is 10 MB).
 */
export const maxStdioMessageBytes = 32 * 1024 * 1024;
