package dev.mcptasks.adapters.gateway;

import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseStatus;
import java.util.Map;

/**
 * Aggregates an admitted request's body up to the limit. A body without a declared length (chunked) that grows past
 * it is refused with 413 as soon as it does, and its connection closed, so the rest is never read.
 */
final class BodyLimit extends HttpObjectAggregator {
    private final int maxRequestBytes;
    private final HttpReplies replies;

    BodyLimit(int maxRequestBytes, HttpReplies replies) {
        super(maxRequestBytes);
        this.maxRequestBytes = maxRequestBytes;
        this.replies = replies;
    }

    @Override
    protected void handleOversizedMessage(ChannelHandlerContext ctx, HttpMessage oversized) {
        replies.rpcError(ctx.channel(), false, HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE, JsonRpc.TRANSPORT_ERROR,
                RequestGate.tooLarge(maxRequestBytes), Map.of());
    }
}
