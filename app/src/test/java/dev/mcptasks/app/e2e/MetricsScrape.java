package dev.mcptasks.app.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads {@code /metrics} of an admin listener and the values in it. A value that another thread or process records
 * (a counter told just after its write commits, a stream the server sees closed a moment later) is awaited with
 * {@link #until}: scrapes follow one another until it shows, within a deadline, and the failure names the last scrape.
 */
public final class MetricsScrape {
    private static final Duration WAIT = Duration.ofSeconds(60);

    private final HttpClient http = HttpClient.newHttpClient();
    private final URI metrics;

    public MetricsScrape(int port) {
        this.metrics = URI.create("http://127.0.0.1:" + port + "/metrics");
    }

    /** One scrape: the Prometheus text. */
    public String scrape() throws Exception {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(metrics).timeout(Duration.ofSeconds(20))
                .build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return response.body();
    }

    /** Scrapes until the text matches; the text that did. */
    public String until(Predicate<String> condition) throws Exception {
        long deadline = System.nanoTime() + WAIT.toNanos();
        String body = scrape();
        while (!condition.test(body)) {
            assertThat(System.nanoTime() < deadline).as("waiting for metrics; last scrape:%n%s", body).isTrue();
            Thread.onSpinWait();
            body = scrape();
        }
        return body;
    }

    /** Scrapes until {@code series} (name and labels as exposed) has {@code value}; the text that had it. */
    public String until(String series, double value) throws Exception {
        return until(body -> value(body, series) == value);
    }

    /**
     * The value of one series ({@code name{labels}} as exposed, labels in the registry's alphabetical order), 0 when
     * the text has no such series (a counter or timer no call has created yet).
     */
    public static double value(String body, String series) {
        Matcher line = Pattern.compile("(?m)^" + Pattern.quote(series) + " (\\S+)$").matcher(body);
        return line.find() ? Double.parseDouble(line.group(1)) : 0;
    }

    /** The sum of every series of the metric {@code name} (each label set), 0 when it has none. */
    public static double sum(String body, String name) {
        Matcher line = Pattern.compile("(?m)^" + Pattern.quote(name) + "\\{[^}]*\\} (\\S+)$").matcher(body);
        double sum = 0;
        while (line.find()) {
            sum += Double.parseDouble(line.group(1));
        }
        return sum;
    }

    /** The {@code mcp_tasks_} series names in a text, histogram suffixes folded into their metric. */
    public static Set<String> metricNames(String text) {
        Set<String> names = new TreeSet<>();
        Matcher matcher = Pattern.compile("mcp_tasks_[a-z_]+").matcher(text);
        while (matcher.find()) {
            names.add(matcher.group().replaceAll("_(bucket|count|sum|max)$", ""));
        }
        return names;
    }
}
