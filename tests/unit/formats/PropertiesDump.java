// Prints what Java reads from a .properties file as one JSON object of keys and values:
//   java PropertiesDump.java <file>
// The file is read as ResourceBundle.getBundle reads it since Java 9: UTF-8, or ISO-8859-1
// when the bytes are not UTF-8.
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.PropertyResourceBundle;
import java.util.TreeSet;

public class PropertiesDump {
    private static String json(String text) {
        StringBuilder out = new StringBuilder("\"");
        for (char c : text.toCharArray()) {
            if (c == '"' || c == '\\') {
                out.append('\\').append(c);
            } else if (c < 0x20 || c > 0x7e) {
                out.append(String.format("\\u%04x", (int) c));
            } else {
                out.append(c);
            }
        }
        return out.append('"').toString();
    }

    public static void main(String[] args) throws IOException {
        try (InputStream in = Files.newInputStream(Path.of(args[0]))) {
            PropertyResourceBundle bundle = new PropertyResourceBundle(in);
            StringBuilder out = new StringBuilder("{");
            for (String key : new TreeSet<>(bundle.keySet())) {
                if (out.length() > 1) {
                    out.append(',');
                }
                out.append(json(key)).append(':').append(json(bundle.getString(key)));
            }
            System.out.println(out.append('}'));
        }
    }
}
