package dev.mcptasks.adapters.oauth;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits a configured command line into its words the way a POSIX shell would, without running a shell: white space
 * separates words; single quotes keep everything literally; double quotes keep white space, and a backslash in them
 * escapes only {@code "}, {@code \}, {@code $} and {@code `}; outside quotes a backslash escapes any character. So
 * {@code open -a 'Google Chrome'} is three words, and nothing in the command is expanded or substituted.
 */
final class CommandWords {
    private CommandWords() {}

    /** The words of {@code command}; throws {@link IllegalArgumentException} naming what is malformed. */
    static List<String> split(String command) {
        List<String> words = new ArrayList<>();
        StringBuilder word = new StringBuilder();
        boolean inWord = false;
        for (int i = 0; i < command.length(); i++) {
            char c = command.charAt(i);
            if (Character.isWhitespace(c)) {
                if (inWord) {
                    words.add(word.toString());
                    word.setLength(0);
                    inWord = false;
                }
            } else if (c == '\'') {
                int end = command.indexOf('\'', i + 1);
                if (end < 0) {
                    throw new IllegalArgumentException("unterminated single quote at position " + (i + 1));
                }
                word.append(command, i + 1, end);
                i = end;
                inWord = true;
            } else if (c == '"') {
                i = doubleQuoted(command, i, word);
                inWord = true;
            } else if (c == '\\') {
                if (i + 1 == command.length()) {
                    throw new IllegalArgumentException("a backslash ends the command");
                }
                word.append(command.charAt(++i));
                inWord = true;
            } else {
                word.append(c);
                inWord = true;
            }
        }
        if (inWord) {
            words.add(word.toString());
        }
        return words;
    }

    /** Appends the double-quoted part opening at {@code open}; returns the index of its closing quote. */
    private static int doubleQuoted(String command, int open, StringBuilder word) {
        for (int i = open + 1; i < command.length(); i++) {
            char c = command.charAt(i);
            if (c == '"') {
                return i;
            }
            if (c == '\\' && i + 1 < command.length() && "\"\\$`".indexOf(command.charAt(i + 1)) >= 0) {
                c = command.charAt(++i);
            }
            word.append(c);
        }
        throw new IllegalArgumentException("unterminated double quote at position " + (open + 1));
    }
}
