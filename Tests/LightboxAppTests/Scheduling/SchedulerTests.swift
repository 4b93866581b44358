import LightboxThumbnails
import Testing

@testable import LightboxApp

// The run loop's pacing rules, each on a clock the test turns.

/// A situation with `changes` applied.
func situation(_ changes: (inout Scheduler.Situation) -> Void = { _ in }) -> Scheduler.Situation {
    var situation = Scheduler.Situation()
    changes(&situation)
    return situation
}

@Test func withNothingDueTheLoopWaitsASecondForInputSignalsAndResults() {
    let scheduler = Scheduler(now: 100)
    let wait = scheduler.wait(at: 100, in: situation())
    #expect(wait.timeout == 1)
    #expect(wait.sources == [.input, .wake, .signals, .metadata], "metadata that decides nothing is taken as it comes")
    #expect(!scheduler.paintsNow(at: 100, screenIsComplete: false), "nothing changed")
}

@Test func resultsStreamingInArePaintedAtMostEvery16MsButTheOneCompletingTheScreenAtOnce() {
    var scheduler = Scheduler(now: 0)
    scheduler.painted(at: 10, complete: false)
    scheduler.changed()
    #expect(!scheduler.paintsNow(at: 10.005, screenIsComplete: false))
    #expect(abs(scheduler.wait(at: 10.005, in: situation()).timeout - 0.011) < 1e-9, "woken when the frame is due")
    #expect(scheduler.paintsNow(at: 10.016, screenIsComplete: false))
    #expect(scheduler.paintsNow(at: 10.005, screenIsComplete: true), "the screen completes: at once")
    scheduler.painted(at: 10.005, complete: true)
    scheduler.changed()
    #expect(!scheduler.paintsNow(at: 10.006, screenIsComplete: true), "complete already: paced again")
    #expect(scheduler.wait(at: 10.03, in: situation()).timeout == 0, "overdue: no wait")
}

@Test func metadataThatReSortsIsTakenFourTimesASecondOrTenTimesWhatTheLastBatchCost() {
    var scheduler = Scheduler(now: 0)
    let sorting = situation { $0.needsAllMetadata = true }
    #expect(scheduler.wait(at: 5, in: sorting).sources.contains(.metadata), "the first batch at once")
    scheduler.tookMetadata(from: 5, to: 5.01)
    var wait = scheduler.wait(at: 5.1, in: sorting)
    #expect(!wait.sources.contains(.metadata) && abs(wait.timeout - 0.16) < 1e-9, "a quarter second after the last")
    #expect(scheduler.wait(at: 5.26, in: sorting).sources.contains(.metadata))
    #expect(scheduler.wait(at: 5.1, in: situation()).sources.contains(.metadata), "for the info panel only: at once")
    // A batch that cost 60 ms holds the next for 600 ms.
    scheduler.tookMetadata(from: 6, to: 6.06)
    wait = scheduler.wait(at: 6.5, in: sorting)
    #expect(!wait.sources.contains(.metadata) && abs(wait.timeout - 0.16) < 1e-9)
    #expect(scheduler.wait(at: 6.66, in: sorting).sources.contains(.metadata))
}

@Test func scanBatchesThatReArrangeAreTakenTenTimesASecondOrTenTimesTheirCostCheapOnesAsTheyCome() {
    var scheduler = Scheduler(now: 0)
    let sorted = situation { $0.isScanning = true }
    #expect(scheduler.takesScan(at: 1, in: sorted) && scheduler.wait(at: 1, in: sorted).sources.contains(.scan))
    scheduler.tookScan(from: 1, to: 1.002)
    #expect(!scheduler.takesScan(at: 1.05, in: sorted) && !scheduler.wait(at: 1.05, in: sorted).sources.contains(.scan))
    #expect(abs(scheduler.wait(at: 1.05, in: sorted).timeout - 0.052) < 1e-9)
    #expect(scheduler.takesScan(at: 1.102, in: sorted))
    scheduler.tookScan(from: 2, to: 2.05)  // re-arranging cost 50 ms: the next in half a second
    #expect(!scheduler.takesScan(at: 2.4, in: sorted) && scheduler.takesScan(at: 2.55, in: sorted))
    // The index's parts (of a known library, handed whole) are taken as they come, however long the last took.
    scheduler.tookScan(from: 3, to: 3.05, fromIndex: true)
    #expect(scheduler.takesScan(at: 3.05, in: sorted) && scheduler.wait(at: 3.05, in: sorted).sources.contains(.scan))
    scheduler.tookScan(from: 4, to: 4.2, fromIndex: true)
    #expect(scheduler.takesScan(at: 4.2, in: sorted))
    // The walk's after them are paced again.
    scheduler.tookScan(from: 5, to: 5.05)
    #expect(!scheduler.takesScan(at: 5.5, in: sorted) && scheduler.takesScan(at: 5.55, in: sorted))
    let cheap = situation {
        $0.isScanning = true
        $0.scanBatchesAreCheap = true
    }
    #expect(scheduler.takesScan(at: 2.06, in: cheap) && scheduler.wait(at: 2.06, in: cheap).sources.contains(.scan))
    #expect(!scheduler.takesScan(at: 9, in: situation()) && !scheduler.wait(at: 9, in: situation()).sources.contains(.scan), "finished")
}

/// While the first screen is full of items and waits for its pictures, what the scan found waits
/// (it lands past the screen, and a large batch would hold up their paint): until a complete
/// screen is painted, or a second after the start; after that it is taken as before.
@Test func scanBatchesWaitForTheFirstScreensPicturesForASecondAtMost() {
    let scheduler = Scheduler(now: 10)
    let waiting = situation {
        $0.isScanning = true
        $0.scanBatchesAreCheap = true
        $0.screenWaitsForPictures = true
    }
    #expect(!scheduler.takesScan(at: 10.2, in: waiting))
    let wait = scheduler.wait(at: 10.2, in: waiting)
    #expect(!wait.sources.contains(.scan) && abs(wait.timeout - 0.8) < 1e-9, "woken when the hold ends")
    #expect(scheduler.takesScan(at: 11.01, in: waiting), "a second at most")
    var fresh = Scheduler(now: 10)
    fresh.painted(at: 10.3, complete: true)
    #expect(fresh.takesScan(at: 10.31, in: waiting), "the first screen was complete once")
    #expect(
        Scheduler(now: 10).takesScan(
            at: 10.2,
            in: situation {
                $0.isScanning = true; $0.scanBatchesAreCheap = true
            }), "a screen not full")
}

@Test func theReadAheadStartsHalfASecondAfterTheLastKeyWhenNothingElseIsAsked() {
    var scheduler = Scheduler(now: 0)
    scheduler.input(at: 3)
    let waiting = situation { $0.readAheadWaiting = true }
    #expect(abs(scheduler.wait(at: 3.2, in: waiting).timeout - 0.3) < 1e-9, "woken when it is due")
    #expect(!scheduler.readAheadIsDue(at: 3.2, nothingElseAsked: true))
    #expect(scheduler.readAheadIsDue(at: 3.5, nothingElseAsked: true))
    #expect(!scheduler.readAheadIsDue(at: 3.5, nothingElseAsked: false), "tiles still decoding")
    scheduler.input(at: 3.6)
    #expect(!scheduler.readAheadIsDue(at: 3.7, nothingElseAsked: true), "a key puts it off again")
    #expect(scheduler.wait(at: 3.7, in: situation()).timeout == 1, "nothing to read ahead: no wake for it")
}

@Test func anAnimationAnEscAndPicturesWaitingForTheTerminalEachWakeTheLoop() {
    let scheduler = Scheduler(now: 0)
    let playing = situation { $0.nextFrame = 7.25 }
    #expect(abs(scheduler.wait(at: 7, in: playing).timeout - 0.25) < 1e-9)
    #expect(!scheduler.isFrameDue(at: 7.2, in: playing) && scheduler.isFrameDue(at: 7.25, in: playing))
    #expect(!scheduler.isFrameDue(at: 7.25, in: situation()), "nothing plays")
    #expect(scheduler.wait(at: 7, in: situation { $0.inputWait = 0.05 }).timeout == 0.05, "an Esc is due as a key")
    let pictures = situation { $0.picturesWaiting = true }
    #expect(scheduler.wait(at: 7, in: pictures).sources.contains(.pictureOutput))
    #expect(!scheduler.wait(at: 7, in: situation()).sources.contains(.pictureOutput), "nothing to write: not polled")
}

@Test func aWaitIsRoundedUpToWholeMillisecondsSoAWakeNeverComesEarly() {
    #expect(Scheduler.Wait(sources: [], timeout: 0.0101).milliseconds == 11)
    #expect(Scheduler.Wait(sources: [], timeout: 0.016).milliseconds == 16)
    #expect(Scheduler.Wait(sources: [], timeout: 0).milliseconds == 0)
    #expect(Scheduler.Wait(sources: [], timeout: .infinity).milliseconds == 3_600_000)
}

@Test func charactersTypedIntoTheFilterInOneReadAreOneEditAppliedBeforeTheNextAction() {
    var batch = InputBatch()
    #expect(batch.add(.filterInput("c")).isEmpty && batch.add(.filterInput("at")).isEmpty)
    #expect(batch.add(.move(.down)) == [.filterInput("cat"), .move(.down)])
    #expect(batch.add(.filterInput("s")).isEmpty)
    #expect(batch.finish() == [.filterInput("s")])
    #expect(batch.finish().isEmpty, "said once")
    #expect(batch.add(.markAll) == [.markAll])
}

@Test func loadsWaitForTheBatchsEndAsOneAndOtherEffectsGoAtOnceWithTheLoadsBeforeThem() {
    let request = { (n: Int) in
        DecodeRequest(
            id: ItemID(n), file: ImageFile(path: ImagePath("\(n).jpg"), byteCount: 1, modified: 0, format: .jpeg), box: PixelSize(width: 8, height: 8))
    }
    var batch = EffectBatch()
    #expect(batch.add([.load([request(1)])]).isEmpty && batch.add([.load([request(2)])]).isEmpty)
    #expect(batch.take() == [.load([request(2)])], "the last wish replaces the ones before")
    #expect(batch.take().isEmpty)
    #expect(batch.add([.load([request(3)])]).isEmpty)
    #expect(batch.add([.redraw]) == [.load([request(3)]), .redraw])
    #expect(batch.take().isEmpty, "carried out with the redraw")
}
