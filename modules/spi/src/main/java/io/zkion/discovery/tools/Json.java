package io.zkion.discovery.tools;

/** The little JSON the tools (and the chaos run's report) write by hand: strings escaped as JSON requires. */
public final class Json {
    private Json() {
    }

    static void field(StringBuilder sb, String name, String value) {
        sb.append(string(name)).append(':').append(string(value));
    }

    /** @return {@code s} as a JSON string, or {@code null} for null. */
    public static String string(String s) {
        if (s == null)
            return "null";

        StringBuilder sb = new StringBuilder(s.length() + 2).append('"');

        for (char c : s.toCharArray()) {
            if (c == '"' || c == '\\')
                sb.append('\\').append(c);
            else if (c < 0x20)
                sb.append(String.format("\\u%04x", (int)c));
            else
                sb.append(c);
        }

        return sb.append('"').toString();
    }
}
