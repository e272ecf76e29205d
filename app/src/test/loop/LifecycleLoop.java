import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

/** Runs one test class N times in a row in this JVM and prints each run's time and failures (lifecycle-loop.sh). */
public class LifecycleLoop {
    public static void main(String[] args) {
        String testClass = args[0];
        int runs = Integer.parseInt(args[1]);
        Launcher launcher = LauncherFactory.create();
        int failedRuns = 0;
        long total = 0;
        for (int run = 1; run <= runs; run++) {
            LauncherDiscoveryRequest request = LauncherDiscoveryRequestBuilder.request()
                    .selectors(selectClass(testClass)).build();
            SummaryGeneratingListener summary = new SummaryGeneratingListener();
            long started = System.nanoTime();
            launcher.execute(request, summary);
            long millis = (System.nanoTime() - started) / 1_000_000;
            total += millis;
            TestExecutionSummary result = summary.getSummary();
            System.out.printf("run %2d: %d tests, %d failed, %.1f s%n", run, result.getTestsSucceededCount()
                    + result.getTestsFailedCount(), result.getTestsFailedCount(), millis / 1000.0);
            if (result.getTestsFailedCount() > 0 || result.getTestsSucceededCount() == 0) {
                failedRuns++;
                result.getFailures().forEach(failure -> System.out.println("  FAILED " + failure.getTestIdentifier()
                        .getUniqueId() + ": " + failure.getException()));
            }
        }
        System.out.printf("%d runs, %d with failures, %.1f s in total, %.1f s per run%n", runs, failedRuns,
                total / 1000.0, total / 1000.0 / runs);
        System.exit(failedRuns == 0 ? 0 : 1);
    }
}
