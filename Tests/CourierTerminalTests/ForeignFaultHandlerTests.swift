import Foundation
import Glibc
import Testing
import CourierTerminal
import CourierTestSupport

/// A runtime in the same process that faults on purpose and handles its own faults (JavaScriptCore's
/// execution-time traps do) keeps working when the explorer's crash handlers are installed on top of
/// its handler, and stays installed when the explorer's handlers were there first and are removed.
/// Run in a child process of its own: the scenario replaces process-wide signal handlers.
@Suite struct ForeignFaultHandlerTests {
    @Test func aRuntimeThatFaultsOnPurposeStillHandlesItsFaultsAroundTheExplorersHandlers() async throws {
        let child = try await TestInOwnProcess.run("foreignFaultChildWhenStartedByItsTest")
        #expect(child.status == 0, "child ended with \(child.status): \(child.stdout)\(child.stderr)")
        #expect(child.stdout.contains("foreign faults handled: 2"))
    }
}

/// The page the foreign handler owns, and how many of its faults it handled.
nonisolated(unsafe) private var foreignPage: UnsafeMutableRawPointer?
nonisolated(unsafe) private var foreignFaults = 0
private let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))

/// Handles a fault on its own page by making the page readable and returning (the access then succeeds);
/// any other fault ends the process with the default action.
private let foreignHandler: @convention(c) (Int32, UnsafeMutablePointer<siginfo_t>?, UnsafeMutableRawPointer?) -> Void = {
    signal, info, _ in
    if let info, let page = foreignPage, info.pointee.si_code > 0,
       info.pointee._sifields._sigfault.si_addr == page {
        foreignFaults += 1
        mprotect(page, pageSize, PROT_READ | PROT_WRITE)
        return
    }
    var action = sigaction()
    action.__sigaction_handler.sa_handler = SIG_DFL
    sigaction(signal, &action, nil)
}

private func installForeignHandler() {
    var action = sigaction()
    action.__sigaction_handler.sa_sigaction = foreignHandler
    sigemptyset(&action.sa_mask)
    action.sa_flags = SA_SIGINFO
    sigaction(SIGSEGV, &action, nil)
}

/// Protects the foreign page and reads it: the read faults once, into whoever handles SIGSEGV.
private func faultOnPurpose() -> UInt8 {
    let page = foreignPage!
    mprotect(page, pageSize, PROT_NONE)
    return page.load(as: UInt8.self)
}

private func makeBackend(_ pty: PseudoTerminal) throws -> CursesBackend {
    try CursesBackend(input: pty.replica, output: pty.replica, term: "xterm-256color",
                      environment: ["TERM": "xterm-256color"], handleSignals: true)
}

/// The child's side: does nothing unless started by the test above.
@Test func foreignFaultChildWhenStartedByItsTest() throws {
    guard TestInOwnProcess.isChild("foreignFaultChildWhenStartedByItsTest") else { return }
    foreignPage = mmap(nil, pageSize, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
    foreignPage!.storeBytes(of: 42, as: UInt8.self)
    // The runtime first, the explorer's handlers on top: the fault passes through ours to the runtime.
    installForeignHandler()
    let pty = try PseudoTerminal()
    let first = try makeBackend(pty)
    #expect(faultOnPurpose() == 42)
    first.restore()
    // The explorer's handlers first, the runtime on top, then the explorer's are removed: the runtime's stay.
    let second = try makeBackend(pty)
    installForeignHandler()
    second.restore()
    #expect(faultOnPurpose() == 42)
    print("foreign faults handled: \(foreignFaults)")
}
