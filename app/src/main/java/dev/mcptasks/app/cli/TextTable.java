package dev.mcptasks.app.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/** A plain-text table with left-aligned columns sized to their widest cell. */
final class TextTable {
    private final List<String[]> rows = new ArrayList<>();
    private final int columns;

    TextTable(String... header) {
        this.columns = header.length;
        rows.add(header);
    }

    TextTable row(Object... cells) {
        String[] row = new String[columns];
        for (int i = 0; i < columns; i++) {
            row[i] = i < cells.length && cells[i] != null ? oneLine(cells[i].toString()) : "-";
        }
        rows.add(row);
        return this;
    }

    void print(PrintWriter out) {
        int[] widths = new int[columns];
        for (String[] row : rows) {
            for (int i = 0; i < columns; i++) {
                widths[i] = Math.max(widths[i], row[i].length());
            }
        }
        for (String[] row : rows) {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < columns; i++) {
                line.append(row[i]);
                if (i < columns - 1) {
                    line.append(" ".repeat(widths[i] - row[i].length() + 2));
                }
            }
            out.println(line.toString().stripTrailing());
        }
    }

    /** Shortens text for one table cell: first line only, at most 60 characters. */
    static String oneLine(String text) {
        String line = text.replace('\r', ' ').replace('\n', ' ');
        return line.length() <= 60 ? line : line.substring(0, 57) + "...";
    }
}
