/** The current MCP revision, served on the modern lane (D27). */
export const MODERN_PROTOCOL_VERSION = '2026-07-28';

/**
 * The revisions the legacy lane serves over HTTP, newest first (D27): streamable HTTP came with
 * 2025-03-26. An initialize naming any other is answered with the first (MCP version negotiation),
 * and a later request naming one in MCP-Protocol-Version gets 400. stdio keeps the SDK's list.
 */
export const LEGACY_PROTOCOL_VERSIONS: readonly string[] = ['2025-11-25', '2025-06-18', '2025-03-26'];
