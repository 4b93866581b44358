import LightboxApp
import LightboxThumbnails
import Testing

@Test func placeholdersAreSubstitutedAndQuotedSoTheShellGetsTheNamesBack() {
    let odd = ImagePath(bytes: Array("it's a \"photo\"\nwith $HOME.jpg".utf8))
    let plain = ImagePath("b c.jpg")
    let command = ShellCommand.expand("printf '%s\\0' {+} > out; echo {}", cursor: plain, selection: [odd, plain])
    #expect(
        String(decoding: command, as: UTF8.self)
            == "printf '%s\\0' 'it'\\''s a \"photo\"\nwith $HOME.jpg' 'b c.jpg' > out; echo 'b c.jpg'")
    // Without placeholders, the selection is appended.
    #expect(String(decoding: ShellCommand.expand("gimp", cursor: plain, selection: [plain]), as: UTF8.self) == "gimp 'b c.jpg'")
    // Bytes that are not UTF-8 pass through untouched.
    let raw = ImagePath(bytes: [0x63, 0xE9, 0x2E, 0x6A])
    #expect(ShellCommand.expand("rm", cursor: raw, selection: [raw]) == Array("rm '".utf8) + [0x63, 0xE9, 0x2E, 0x6A] + [0x27])
}

@Test func bindingsRunCommandsAndTheKeyHandlerTakesTheNextKey() {
    var state = GalleryState(
        library: library([5]), spec: threeColumns, width: 40, height: 20,
        settings: settings { $0.keyTable = KeyTable.standard.adding([KeyBinding([.character("x")], .exec("echo {}"), "run: echo {}")]) })
    #expect(state.keyTable.command(for: .character("x")) == .exec("echo {}"))
    #expect(state.keyTable.bindings.filter { $0.keys.contains(.character("x")) }.count == 1)
    _ = state.apply(.toggleMark)
    #expect(state.apply(.exec("echo {+}")) == [.run(Array("echo 'photos/s0/IMG_1.jpg'".utf8))])
    #expect(state.apply(.exec("")).isEmpty && state.message?.contains("--exec") == true)
    _ = state.apply(.keyHandlerPrefix)
    #expect(state.mode == .handlerKey)
    #expect(state.apply(.keyHandler("c")) == [.runKeyHandler(key: "c", paths: [ImagePath("photos/s0/IMG_1.jpg")])])
    #expect(state.mode != .handlerKey)
}
