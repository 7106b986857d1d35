import HTTPTypes
import NIOHTTPTypes
import NIOCore

/// Closes a connection whose next request has not arrived in full (head and body) within a deadline.
///
/// The idle timeout alone closes only a *silent* connection: a client that sends one byte every few seconds resets
/// it for ever and keeps its connection (slowloris). This handler gives each request a budget instead, counted from
/// the moment the server is ready for it (the connection opened, or the previous response was written) until its
/// last body byte is read; a request still arriving after that is cut off by closing the connection. While a
/// request is being answered no deadline runs (the cell lanes have their own timeouts).
///
/// It sits after Hummingbird's HTTP/1 codec, so it sees request and response parts, not bytes: the head's arrival
/// is covered because the clock starts before the head is parsed.
final class RequestDeadlineHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let deadline: TimeAmount
    /// When the running request's clock started; nil while no clock runs (a request is being answered).
    private var started: NIODeadline?
    /// The one timer of the connection, at `started + deadline` or earlier. Not moved for every request: it is
    /// scheduled when a clock starts and none is pending, and when it fires it closes the connection only if the
    /// clock then running started a whole deadline ago, else it waits again for that clock's end: a request costs a
    /// reading of the clock, not a timer scheduled and cancelled (docs/performance.md, "One timer a connection").
    private var timer: Scheduled<Void>?
    /// The request's last part was read (the clock stopped) and its response is not written yet.
    private var requestRead = false

    init(deadline: TimeAmount) {
        self.deadline = deadline
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { arm(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        arm(context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        cancelTimer()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        cancelTimer()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .end = unwrapInboundIn(data) {
            requestRead = true
            started = nil
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        // A response may end before its request did (a 413 refuses a body still arriving): the request's clock then
        // keeps running, and the next request's starts only once this one has been read.
        if case .end = unwrapOutboundIn(data), requestRead {
            requestRead = false
            arm(context)
        }
        context.write(data, promise: promise)
    }

    /// Starts the next request's clock.
    private func arm(_ context: ChannelHandlerContext) {
        let now = NIODeadline.now()
        started = now
        if timer == nil { schedule(context, at: now + deadline) }
    }

    private func schedule(_ context: ChannelHandlerContext, at when: NIODeadline) {
        let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        timer = context.eventLoop.scheduleTask(deadline: when) {
            let (handler, context) = bound.value
            handler.fire(context)
        }
    }

    private func fire(_ context: ChannelHandlerContext) {
        timer = nil
        guard let started else { return }  // no clock runs: the next one schedules the timer again
        let end = started + deadline
        if end <= .now() {
            context.close(promise: nil)
        } else {
            schedule(context, at: end)
        }
    }

    private func cancelTimer() {
        started = nil
        timer?.cancel()
        timer = nil
    }
}
