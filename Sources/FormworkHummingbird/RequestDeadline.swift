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
        disarm()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        disarm()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .end = unwrapInboundIn(data) {
            requestRead = true
            disarm()
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

    private func arm(_ context: ChannelHandlerContext) {
        disarm()
        let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
        timer = context.eventLoop.scheduleTask(in: deadline) {
            bound.value.close(promise: nil)
        }
    }

    private func disarm() {
        timer?.cancel()
        timer = nil
    }
}
