package io.zkion.discovery.codec;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Random;

/**
 * Payloads shaped like IGNITE-28848's: maps and a list of random 10-40 character strings. Seeded, so every
 * run (tests and benchmarks) marshals the same bytes.
 */
public enum Payloads {
    /** A {@code HashMap<String,String>} of about 1.6 KB marshalled. */
    MAP_2K,
    /** A {@code HashMap<String,String>} of about 132 KB marshalled. */
    MAP_100K,
    /** An {@code ArrayList<String>} of about 1.66 MB marshalled. */
    LIST_1M;

    public Object create() {
        Random rnd = new Random(28848 + ordinal());

        switch (this) {
            case MAP_2K: return map(rnd, 30);
            case MAP_100K: return map(rnd, 2450);
            default: return list(rnd, 62_000);
        }
    }

    private static HashMap<String, String> map(Random rnd, int entries) {
        HashMap<String, String> m = new HashMap<>();

        while (m.size() < entries)
            m.put(string(rnd), string(rnd));

        return m;
    }

    private static ArrayList<String> list(Random rnd, int size) {
        ArrayList<String> l = new ArrayList<>(size);

        for (int i = 0; i < size; i++)
            l.add(string(rnd));

        return l;
    }

    private static String string(Random rnd) {
        char[] c = new char[10 + rnd.nextInt(31)];

        for (int i = 0; i < c.length; i++)
            c[i] = (char)('a' + rnd.nextInt(26));

        return new String(c);
    }
}
