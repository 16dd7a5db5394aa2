/** The current MCP revision, served on the modern lane (D27). */
export const MODERN_PROTOCOL_VERSION = '2026-07-28';
