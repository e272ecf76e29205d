package dev.mcptasks.adapters.admin;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.nio.charset.StandardCharsets;

/** {@code /metrics}: the Prometheus text exposition, the store's figures refreshed first when stale. */
final class MetricsRoute implements AdminRoute {
    private static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

    private final PrometheusMeterRegistry registry;
    private final StoreFigureGauges figures;
    private final PoolMeters pools;

    MetricsRoute(PrometheusMeterRegistry registry, StoreFigureGauges figures, PoolMeters pools) {
        this.registry = registry;
        this.figures = figures;
        this.pools = pools;
    }

    @Override
    public AdminReply handle(AdminRequest request) {
        pools.bindOnce();
        figures.refreshIfStale();
        return new AdminReply(200, CONTENT_TYPE, registry.scrape().getBytes(StandardCharsets.UTF_8));
    }
}
