package dev.mcptasks.chaos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The command line: {@code --generation} picks what the reference server serves; 2025-11-25 unless told. */
class ChaosMainTest {
    @Test
    void theGenerationIs2025UnlessToldAndTakesTheThreeServedModes() {
        assertThat(ChaosMain.parse(new String[] {"--short"}).generation()).isEqualTo("2025-11-25");
        assertThat(ChaosMain.parse(new String[] {"--generation", "2026-07-28"}).generation()).isEqualTo("2026-07-28");
        assertThat(ChaosMain.parse(new String[] {"--generation", "dual", "--db", "sqlite"}).generation())
                .isEqualTo("dual");
    }

    @Test
    void anUnknownGenerationIsRefusedNamingTheChoices() {
        assertThatThrownBy(() -> ChaosMain.parse(new String[] {"--generation", "2024"}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--generation takes 2025-11-25, 2026-07-28 or dual");
        assertThatThrownBy(() -> ChaosMain.parse(new String[] {"--generation"}))
                .hasMessage("--generation needs a value");
    }
}
