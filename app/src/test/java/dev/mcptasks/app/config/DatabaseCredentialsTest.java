package dev.mcptasks.app.config;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * Credentials written into a PostgreSQL url become the user and password (the driver takes none there, and read them
 * as the host, printing the password in its errors); password parameters count as secrets.
 */
class DatabaseCredentialsTest {
    @Test
    void userAndPasswordInThePostgresUrlAreTakenOutOfIt() {
        DatabaseConfig database = new DatabaseConfig("jdbc:postgresql://alice:s3cret%40pw@db.internal:5432/tasks",
                null, null);

        assertThat(database.url()).isEqualTo("jdbc:postgresql://db.internal:5432/tasks");
        assertThat(database.user()).isEqualTo("alice");
        assertThat(database.password()).isEqualTo("s3cret@pw");
    }

    @Test
    void explicitCredentialsWinAndAUrlWithoutUserInfoIsKept() {
        DatabaseConfig database = new DatabaseConfig("jdbc:postgresql://bob:urlpass1@h/db", "carol", "keypass123");
        assertThat(database.url()).isEqualTo("jdbc:postgresql://h/db");
        assertThat(database.user()).isEqualTo("carol");
        assertThat(database.password()).isEqualTo("keypass123");

        assertThat(new DatabaseConfig("jdbc:postgresql://h:5432/db?sslmode=require", null, null).url())
                .isEqualTo("jdbc:postgresql://h:5432/db?sslmode=require");
        assertThat(ConfiguredSecrets.queryPasswords("jdbc:postgresql://h/db?user=a&password=qp4ssw0rdXYZ"))
                .containsExactly("qp4ssw0rdXYZ");
    }
}
