package io.zkion.discovery.chaos;

/** A node's status line, as {@link StatusWriter} writes it. */
final class NodeStatus {
    final long time;
    final int incarnation;
    final String id;
    final long order;
    final long topVer;
    final int servers;
    final int clients;
    final boolean replicated;

    private NodeStatus(String[] p) {
        time = Long.parseLong(p[0]);
        incarnation = Integer.parseInt(p[1]);
        id = p[2];
        order = Long.parseLong(p[3]);
        topVer = Long.parseLong(p[4]);
        servers = Integer.parseInt(p[5]);
        clients = Integer.parseInt(p[6]);
        replicated = Boolean.parseBoolean(p[7]);
    }

    /** @return The status, or null if the line is not one. */
    static NodeStatus parse(String line) {
        String[] p = line.split(" ");

        try {
            return p.length == 8 ? new NodeStatus(p) : null;
        }
        catch (NumberFormatException e) {
            return null;
        }
    }
}
