import { Link } from "@tanstack/react-router";

/** A donor list's Name cell: the name, a link to the donor, with the e-mail under it. */
export function DonorNameCell({
  donorId,
  name,
  email,
}: {
  donorId: string;
  name: string;
  email: string | null;
}) {
  return (
    <span className="flex min-w-0 flex-col">
      <Link to="/donors/$donorId" params={{ donorId }} className="font-medium hover:underline">
        {name}
      </Link>
      {email ? <span className="break-all text-muted-foreground text-xs">{email}</span> : null}
    </span>
  );
}
