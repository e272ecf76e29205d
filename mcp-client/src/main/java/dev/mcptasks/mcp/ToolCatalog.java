package dev.mcptasks.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

/**
 * The cached result of {@code tools/list} (all pages), fetched on demand and dropped when the server says the list
 * changed or the connection is replaced. A list fetched while an invalidation arrives is handed to its callers but
 * not kept, so the next caller fetches again.
 */
final class ToolCatalog {
    static final int MAX_PAGES = 1000;

    private final String serverName;
    private final Function<JsonNode, CompletableFuture<JsonNode>> listPage;
    private final AtomicReference<CompletableFuture<Map<String, McpTool>>> cached = new AtomicReference<>();

    /** @param listPage sends {@code tools/list} with the given params (null for the first page) */
    ToolCatalog(String serverName, Function<JsonNode, CompletableFuture<JsonNode>> listPage) {
        this.serverName = serverName;
        this.listPage = listPage;
    }

    /** The tools by name, in server order; a copy, so a caller's cancel does not poison the cache. */
    CompletableFuture<Map<String, McpTool>> tools() {
        while (true) {
            CompletableFuture<Map<String, McpTool>> current = cached.get();
            if (current != null && !current.isCompletedExceptionally() && !current.isCancelled()) {
                return current.copy();
            }
            CompletableFuture<Map<String, McpTool>> fresh = new CompletableFuture<>();
            if (cached.compareAndSet(current, fresh)) {
                fetch(null, new LinkedHashMap<>(), new HashSet<>(), fresh);
                return fresh.copy();
            }
        }
    }

    void invalidate() {
        cached.set(null);
    }

    private void fetch(String cursor, Map<String, McpTool> into, Set<String> seenCursors,
            CompletableFuture<Map<String, McpTool>> done) {
        JsonNode params = cursor == null ? null : Json.object().put("cursor", cursor);
        listPage.apply(params).whenComplete((page, error) -> {
            if (error != null) {
                done.completeExceptionally(error);
                return;
            }
            try {
                JsonNode tools = page.get("tools");
                if (tools == null || !tools.isArray()) {
                    throw new McpProtocolException(serverName, "the tools/list result has no tools array");
                }
                for (JsonNode tool : tools) {
                    McpTool parsed = McpTool.parse(serverName, tool);
                    into.put(parsed.name(), parsed);
                }
                JsonNode next = page.get("nextCursor");
                if (next == null || next.isNull()) {
                    done.complete(Collections.unmodifiableMap(into));
                    return;
                }
                if (!next.isTextual()) {
                    throw new McpProtocolException(serverName, "tools/list returned a nextCursor that is not a string");
                }
                if (!seenCursors.add(next.textValue()) || seenCursors.size() > MAX_PAGES) {
                    throw new McpProtocolException(serverName, "tools/list pagination does not end (cursor '"
                            + next.textValue() + "' repeated or more than " + MAX_PAGES + " pages)");
                }
                fetch(next.textValue(), into, seenCursors, done);
            } catch (McpProtocolException e) {
                done.completeExceptionally(e);
            }
        });
    }
}
