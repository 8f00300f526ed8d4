package io.zkion.discovery.bench.scale;

/** A cluster's size and make-up: servers and clients. */
final class Shape {
    final int servers;
    final int clients;

    Shape(int servers, int clients) {
        this.servers = servers;
        this.clients = clients;
    }

    /** @param s {@code 300} (servers only) or {@code 100+900} (servers plus clients). */
    static Shape parse(String s) {
        String[] p = s.trim().split("\\+");

        return new Shape(Integer.parseInt(p[0]), p.length > 1 ? Integer.parseInt(p[1]) : 0);
    }

    int members() {
        return servers + clients;
    }

    @Override public String toString() {
        return clients == 0 ? servers + " servers" : servers + " servers + " + clients + " clients";
    }
}
