// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Lightbox",
    products: [
        .executable(name: "lightbox", targets: ["lightbox"]),
        .executable(name: "lightbox-decode", targets: ["lightbox-decode"]),
        // The layout core for other terminal programs: columns, pinned sections, masonry, strips.
        .library(name: "LightboxLayout", targets: ["LightboxLayout"]),
    ],
    targets: [
        // C libraries, each behind a shim of static inline wrappers.
        .systemLibrary(name: "CNcurses", pkgConfig: "ncursesw", providers: [.apt(["libncurses-dev"])]),
        .systemLibrary(name: "CVips", pkgConfig: "vips", providers: [.apt(["libvips-dev"])]),
        .systemLibrary(name: "CExempi", pkgConfig: "exempi-2.0", providers: [.apt(["libexempi-dev"])]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CChafa", pkgConfig: "chafa", providers: [.apt(["libchafa-dev"])]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CTurboJPEG", pkgConfig: "libturbojpeg", providers: [.apt(["libturbojpeg0-dev"])]),
        .systemLibrary(name: "CLibRaw", providers: [.apt(["libraw-dev"])]),
        .systemLibrary(
            name: "CFFmpeg",
            providers: [.apt(["libavformat-dev", "libavcodec-dev", "libswscale-dev", "libavutil-dev"])]),
        // The C library's character widths (in the C library itself: nothing to install).
        .systemLibrary(name: "CWidth"),
        // Linux calls without a Swift-callable wrapper: thread ids, idle CPU and I/O priority.
        .systemLibrary(name: "CSystem"),

        // Pure parts.
        .target(name: "LightboxLayout"),
        .target(name: "LightboxTerminal", dependencies: ["CWidth", "CZlib", "CTurboJPEG"]),
        .target(name: "LightboxThumbnails", dependencies: ["CTurboJPEG", "CZlib", "CChafa", "CSystem", "CSQLite"]),
        // The big image libraries: linked into lightbox-decode, never into the app.
        .target(name: "LightboxCodecs", dependencies: ["LightboxThumbnails", "CVips", "CFFmpeg", "CLibRaw", "CExempi"]),
        .target(name: "LightboxApp", dependencies: ["LightboxLayout", "LightboxTerminal", "LightboxThumbnails"]),
        .target(name: "LightboxView", dependencies: ["LightboxApp", "LightboxTerminal"]),

        // The terminal edge.
        .target(name: "LightboxCurses", dependencies: ["CNcurses", "LightboxTerminal"]),
        .executableTarget(
            name: "lightbox",
            dependencies: [
                "LightboxApp", "LightboxView", "LightboxCurses", "LightboxThumbnails",
            ]),
        .executableTarget(name: "lightbox-decode", dependencies: ["LightboxCodecs", "LightboxThumbnails"]),
        .executableTarget(name: "lightbox-docs", dependencies: ["LightboxApp"]),
        .executableTarget(name: "lightbox-layout-example", dependencies: ["LightboxLayout"], path: "Examples/LayoutExample"),
        .executableTarget(name: "lightbox-samples", dependencies: ["LightboxThumbnails", "LightboxCodecs", "LightboxTestSupport"]),
        .executableTarget(
            name: "lightbox-bench",
            dependencies: [
                "LightboxApp", "LightboxView", "LightboxThumbnails", "LightboxCodecs", "LightboxTestSupport", "LightboxCurses", "CZlib",
            ]),

        // libFuzzer targets; `make fuzz` builds them with -sanitize=fuzzer (libFuzzer supplies main).
        .executableTarget(
            name: "lightbox-fuzz", dependencies: ["LightboxThumbnails", "LightboxCodecs", "LightboxTerminal", "LightboxApp"],
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]),

        .target(name: "LightboxTestSupport", dependencies: ["LightboxTerminal", "LightboxThumbnails", "LightboxCodecs"]),
        .testTarget(name: "LightboxLayoutTests", dependencies: ["LightboxLayout"]),
        .testTarget(name: "LightboxAppTests", dependencies: ["LightboxApp", "LightboxTestSupport"]),
        .testTarget(name: "LightboxViewTests", dependencies: ["LightboxView", "LightboxTestSupport"], exclude: ["Snapshots"]),
        .testTarget(name: "LightboxThumbnailsTests", dependencies: ["LightboxThumbnails", "LightboxCodecs", "LightboxTestSupport"]),
        .testTarget(name: "LightboxCursesTests", dependencies: ["LightboxCurses", "LightboxTestSupport"]),
    ]
)
