import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { answer, ApiError, dashboard, formBody } from '../api';
import { ErrorNotice, Field, formValues } from '../components/ui';
import { ME, useSignedIn } from '../session';

/** The token of an e-mailed link: in the fragment (`#token=…`), which no server ever sees. */
function linkToken(): string {
  return new URLSearchParams(window.location.hash.slice(1)).get('token') ?? '';
}

function AuthCard({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <main id="main" className="auth">
      <div className="card">
        <p className="brand">Merchant Dashboard</p>
        <h1>{title}</h1>
        {children}
      </div>
    </main>
  );
}

export function LogIn() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const signedIn = useSignedIn();
  const [needsCode, setNeedsCode] = useState(false);
  const login = useMutation({
    mutationFn: (body: Record<string, string>) => answer(dashboard.POST('/api/dashboard/login', { body: formBody<'LoginDto'>(body) })),
    onSuccess: (account) => {
      signedIn(account);
      const next = params.get('next');
      void navigate(next?.startsWith('/') && !next.startsWith('//') ? next : '/', { replace: true });
    },
    onError: (err) => {
      if (err instanceof ApiError && err.code === 'two_factor_required') setNeedsCode(true);
    },
  });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const values = formValues(event.currentTarget);
    login.mutate(needsCode ? values : { email: values.email, password: values.password });
  };
  const error = login.error instanceof ApiError && login.error.code === 'two_factor_required' ? null : login.error;
  return (
    <AuthCard title="Sign in">
      <form onSubmit={submit} noValidate={false}>
        <Field label="E-mail" name="email" type="email" autoComplete="username" required />
        <Field label="Password" name="password" type="password" autoComplete="current-password" required />
        {needsCode && (
          <Field
            label="Code from your authenticator app, or a recovery code"
            name="code"
            autoComplete="one-time-code"
            inputMode="text"
            required
            hint="Six digits from the app, or one of your recovery codes (each works once)."
          />
        )}
        <ErrorNotice error={error} />
        <button type="submit" disabled={login.isPending}>
          {needsCode ? 'Verify and sign in' : 'Sign in'}
        </button>
      </form>
      <p>
        <Link to="/reset-password">Forgot your password?</Link> · <Link to="/signup">Create an account</Link>
      </p>
    </AuthCard>
  );
}

export function SignUp() {
  const navigate = useNavigate();
  const signedIn = useSignedIn();
  const signUp = useMutation({
    mutationFn: (body: Record<string, string>) => answer(dashboard.POST('/api/dashboard/signup', { body: formBody<'SignUpDto'>(body) })),
    onSuccess: (account) => {
      signedIn(account);
      void navigate('/', { replace: true });
    },
  });
  return (
    <AuthCard title="Create your merchant account">
      <form
        onSubmit={(event) => {
          event.preventDefault();
          signUp.mutate(formValues(event.currentTarget));
        }}
      >
        <Field label="Business name" name="merchantName" autoComplete="organization" required />
        <Field label="E-mail" name="email" type="email" autoComplete="username" required />
        <Field label="Password" name="password" type="password" autoComplete="new-password" required minLength={12} hint="12 to 256 characters." />
        <ErrorNotice error={signUp.error} />
        <button type="submit" disabled={signUp.isPending}>
          Create account
        </button>
      </form>
      <p>
        Have an account? <Link to="/login">Sign in</Link>
      </p>
    </AuthCard>
  );
}

export function ResetPassword() {
  const token = linkToken();
  const navigate = useNavigate();
  const request = useMutation({
    mutationFn: (body: Record<string, string>) => answer(dashboard.POST('/api/dashboard/password-reset', { body: formBody<'PasswordResetRequestDto'>(body) })),
  });
  const reset = useMutation({
    mutationFn: (body: Record<string, string>) =>
      answer(dashboard.POST('/api/dashboard/password-reset/confirm', { body: { ...formBody<'PasswordResetDto'>(body), token } })),
    onSuccess: () => void navigate('/login?reset=1', { replace: true }),
  });
  if (!token) {
    return (
      <AuthCard title="Reset your password">
        {request.isSuccess ? (
          <p role="status">If an account has this e-mail, a link to reset its password is on its way. It works once, for an hour.</p>
        ) : (
          <form
            onSubmit={(event) => {
              event.preventDefault();
              request.mutate(formValues(event.currentTarget));
            }}
          >
            <Field label="E-mail" name="email" type="email" autoComplete="username" required />
            <ErrorNotice error={request.error} />
            <button type="submit" disabled={request.isPending}>
              Send me a link
            </button>
          </form>
        )}
        <p>
          <Link to="/login">Back to sign in</Link>
        </p>
      </AuthCard>
    );
  }
  return (
    <AuthCard title="Choose a new password">
      <form
        onSubmit={(event) => {
          event.preventDefault();
          reset.mutate(formValues(event.currentTarget));
        }}
      >
        <Field label="New password" name="newPassword" type="password" autoComplete="new-password" required minLength={12} hint="12 to 256 characters." />
        <ErrorNotice error={reset.error} />
        <button type="submit" disabled={reset.isPending}>
          Set the new password
        </button>
      </form>
      <p className="muted">Every session of your account ends; sign in again afterwards.</p>
    </AuthCard>
  );
}

export function VerifyEmail() {
  const client = useQueryClient();
  const verify = useMutation({
    mutationFn: () => answer(dashboard.POST('/api/dashboard/verify-email', { body: { token: linkToken() } })),
    onSuccess: () => void client.invalidateQueries({ queryKey: ME }),
  });
  const { mutate } = verify;
  useEffect(() => mutate(), [mutate]);
  return (
    <AuthCard title="Confirm your e-mail">
      {verify.isPending && <p role="status">Confirming…</p>}
      {verify.isSuccess && <p role="status">Your e-mail address is confirmed.</p>}
      <ErrorNotice error={verify.error} />
      <p>
        <Link to="/">Go to the dashboard</Link>
      </p>
    </AuthCard>
  );
}

export function AcceptInvitation() {
  const navigate = useNavigate();
  const signedIn = useSignedIn();
  const accept = useMutation({
    mutationFn: (body: Record<string, string>) =>
      answer(dashboard.POST('/api/dashboard/invitations/accept', { body: { ...formBody<'AcceptInvitationDto'>(body), token: linkToken() } })),
    onSuccess: (account) => {
      signedIn(account);
      void navigate('/', { replace: true });
    },
  });
  return (
    <AuthCard title="Join your team">
      <p>Choose a password for your account; your e-mail is the one the invitation was sent to.</p>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          accept.mutate(formValues(event.currentTarget));
        }}
      >
        <Field label="Password" name="password" type="password" autoComplete="new-password" required minLength={12} hint="12 to 256 characters." />
        <ErrorNotice error={accept.error} />
        <button type="submit" disabled={accept.isPending}>
          Accept the invitation
        </button>
      </form>
    </AuthCard>
  );
}
