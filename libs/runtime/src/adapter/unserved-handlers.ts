import type { DescService } from "@bufbuild/protobuf";
import type { GenService, GenServiceMethods } from "@bufbuild/protobuf/codegenv2";
import type { ServiceHandlers } from "./handler-types.js";

/**
 * Handlers refusing every method of `service` with the error `refuse` makes of a message naming
 * the method. A service maps that error to UNIMPLEMENTED with its own reason, so clients get
 * ErrorInfo as for every other failure (a method without a handler gets a bare status from
 * grpc-js), and the call passes the server's authentication first. Register the service with
 * `served: false` so health never reports it SERVING.
 */
export function unservedHandlers<S extends GenServiceMethods>(
  service: GenService<S>,
  refuse: (message: string) => Error,
): ServiceHandlers<S> {
  const handlers: Record<string, () => never> = {};
  for (const method of (service as unknown as DescService).methods) {
    handlers[method.localName] = () => {
      throw refuse(`${method.parent.typeName}.${method.name} is not served by this server yet`);
    };
  }
  return handlers as unknown as ServiceHandlers<S>;
}
