package io.zkion.discovery.bench;

import io.zkion.discovery.codec.Payloads;
import io.zkion.discovery.codec.event.JdkMarshallers;
import io.zkion.discovery.codec.zip.StreamingZip;
import org.apache.ignite.marshaller.Marshaller;

/** Prints, as JSON, each payload's marshalled and compressed size: the report needs them for the targets. */
public final class PayloadSizes {
    private PayloadSizes() {
    }

    public static void main(String[] args) throws Exception {
        Marshaller marsh = JdkMarshallers.create();
        StringBuilder sb = new StringBuilder("{");

        for (Payloads p : Payloads.values()) {
            Object obj = p.create();

            sb.append(sb.length() > 1 ? ", " : "").append('"').append(p).append("\": {\"marshalled\": ")
                .append(marsh.marshal(obj).length).append(", \"compressed\": ")
                .append(StreamingZip.defaults().marshalZip(marsh, obj).length).append('}');
        }

        System.out.println(sb.append('}'));
    }
}
