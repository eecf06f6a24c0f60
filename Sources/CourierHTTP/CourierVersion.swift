/// Courier's version: printed by `courier --version`, sent in the default User-Agent, written into
/// crash reports.
public enum CourierVersion {
    public static let current = "0.1.0"
}
