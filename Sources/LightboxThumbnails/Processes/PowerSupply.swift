import Foundation

/// Whether the machine runs on its battery, from the kernel's power supply class: the
/// read-ahead keeps to one worker then, so a laptop's idle time is not spent on thumbnails.
public enum PowerSupply {
    /// Where Linux lists power supplies.
    public static let standardRoot = "/sys/class/power_supply"

    /// True when no mains or USB supply is online and a system battery is discharging. A
    /// machine without a battery (or without `root`) is on mains. Peripheral batteries (a
    /// mouse's, `scope` Device) do not count.
    /// - Complexity: O(*n*) small file reads in the supplies listed.
    public static func isOnBattery(root: String = standardRoot) -> Bool {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: root) else { return false }
        var discharging = false
        for name in names {
            func read(_ file: String) -> String? {
                (try? String(contentsOfFile: "\(root)/\(name)/\(file)", encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
            }
            switch read("type") {
            case "Battery" where read("scope") != "Device":
                if read("status") == "Discharging" { discharging = true }
            case "Mains", "USB", "USB_C", "USB_PD", "Wireless":
                if read("online") == "1" { return false }
            default: break
            }
        }
        return discharging
    }
}
